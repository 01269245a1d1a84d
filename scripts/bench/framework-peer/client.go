package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The sec API calls the sec provider makes for an e-mail channel: an access token from the key and
// secret (cached until shortly before it expires), then create + test, read, update + test, delete.
const (
	tokenPath         = "/api/v2/access/tokens"
	channelsPath      = "/api/v2/AlertChannels"
	tokenLifetimeSecs = 3600
	renewMargin       = 5 * time.Minute
	callTimeout       = 125 * time.Second
)

type apiError struct {
	Operation string
	Status    int
	Message   string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.Operation, e.Status, e.Message)
}

func isNotFound(err error) bool {
	var e *apiError
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

type secClient struct {
	base      string
	http      *http.Client
	apiKey    string
	apiSecret string
	userAgent string
	extra     map[string]string

	mu      sync.Mutex
	token   string
	renewAt time.Time
}

func newSecClient(baseURL, apiKey, apiSecret, apiToken, userAgent string, extra map[string]string) (*secClient, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("SEC_API_URL %q is not an http(s) URL", baseURL)
	}
	// Keep-alive connections, at most eight to the host, as the sec client's pool.
	transport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 8,
		MaxConnsPerHost:     8,
		IdleConnTimeout:     30 * time.Second,
		Proxy:               http.ProxyFromEnvironment,
	}
	c := &secClient{
		base:      strings.TrimRight(u.String(), "/"),
		http:      &http.Client{Transport: transport, Timeout: callTimeout},
		apiKey:    apiKey,
		apiSecret: apiSecret,
		userAgent: userAgent,
		extra:     extra,
	}
	if apiToken != "" {
		c.token, c.renewAt = apiToken, time.Now().Add(tokenLifetimeSecs*time.Second-renewMargin)
	}
	return c, nil
}

func (c *secClient) accessToken(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && time.Now().Before(c.renewAt) {
		return c.token, nil
	}
	var answer struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expiresAt"`
	}
	body := map[string]any{"keyId": c.apiKey, "expiryTime": tokenLifetimeSecs}
	headers := map[string]string{"X-SEC-UAKS": c.apiSecret}
	if err := c.exchange(ctx, "POST", tokenPath, "POST "+tokenPath, headers, body, &answer); err != nil {
		return "", err
	}
	expires, err := time.Parse(time.RFC3339, answer.ExpiresAt)
	if answer.Token == "" || err != nil {
		return "", fmt.Errorf("POST %s: the answer holds no token or expiry", tokenPath)
	}
	c.token, c.renewAt = answer.Token, expires.Add(-renewMargin)
	return c.token, nil
}

func (c *secClient) call(ctx context.Context, method, path, operation string, body, out any) error {
	token, err := c.accessToken(ctx)
	if err != nil {
		return err
	}
	return c.exchange(ctx, method, path, operation, map[string]string{"Authorization": "Bearer " + token}, body, out)
}

// exchange makes one call, waiting out a 429 as go-retryablehttp's default policy does (Retry-After,
// or a second), so that the peer runs under a platform's rate limit as a provider a team ships would.
func (c *secClient) exchange(ctx context.Context, method, path, operation string, headers map[string]string, body, out any) error {
	var encoded []byte
	if body != nil {
		var err error
		if encoded, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 1; ; attempt++ {
		status, wait, err := c.attempt(ctx, method, path, operation, headers, encoded, body != nil, out)
		if status != http.StatusTooManyRequests || attempt == maxRateLimitedAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// maxRateLimitedAttempts is how often a call refused with 429 is made before its error is returned.
const maxRateLimitedAttempts = 30

func (c *secClient) attempt(ctx context.Context, method, path, operation string, headers map[string]string, encoded []byte, hasBody bool, out any) (int, time.Duration, error) {
	var reader io.Reader
	if hasBody {
		reader = bytes.NewReader(encoded)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, reader)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	for name, value := range c.extra {
		req.Header.Set(name, value)
	}
	for name, value := range headers {
		req.Header.Set(name, value)
	}
	if hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", operation, err)
	}
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: reading the answer: %w", operation, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var problem struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(text, &problem)
		wait := time.Second
		if seconds, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && seconds >= 0 {
			wait = time.Duration(seconds) * time.Second
		}
		return resp.StatusCode, wait, &apiError{Operation: operation, Status: resp.StatusCode, Message: problem.Message}
	}
	if out != nil {
		if err := json.Unmarshal(text, out); err != nil {
			return resp.StatusCode, 0, fmt.Errorf("%s: unexpected answer: %w", operation, err)
		}
	}
	return resp.StatusCode, 0, nil
}

// flag is the API's 0/1 (or boolean) switch.
type flag bool

func (f *flag) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "1", "true":
		*f = true
	case "0", "false", "null":
		*f = false
	default:
		return fmt.Errorf("not a flag: %s", b)
	}
	return nil
}

type apiChannel struct {
	IntgGUID             string `json:"intgGuid"`
	Name                 string `json:"name"`
	Type                 string `json:"type"`
	Enabled              flag   `json:"enabled"`
	IsOrg                flag   `json:"isOrg"`
	CreatedOrUpdatedTime string `json:"createdOrUpdatedTime"`
	CreatedOrUpdatedBy   string `json:"createdOrUpdatedBy"`
	Data                 struct {
		ChannelProps struct {
			Recipients []string `json:"recipients"`
		} `json:"channelProps"`
	} `json:"data"`
}

type channelInput struct {
	Name       string
	Enabled    bool
	Recipients []string
}

func (in channelInput) body() map[string]any {
	enabled := 0
	if in.Enabled {
		enabled = 1
	}
	return map[string]any{
		"name":    in.Name,
		"type":    "EmailUser",
		"enabled": enabled,
		"data":    map[string]any{"channelProps": map[string]any{"recipients": in.Recipients}},
	}
}

func (c *secClient) channel(ctx context.Context, method, path, operation string, body any) (*apiChannel, error) {
	var answer struct {
		Data *apiChannel `json:"data"`
	}
	if err := c.call(ctx, method, path, operation, body, &answer); err != nil {
		return nil, err
	}
	if answer.Data == nil {
		return nil, fmt.Errorf("%s: the answer holds no channel", operation)
	}
	return answer.Data, nil
}

func (c *secClient) createChannel(ctx context.Context, in channelInput) (*apiChannel, error) {
	return c.channel(ctx, "POST", channelsPath, "POST "+channelsPath, in.body())
}

func (c *secClient) getChannel(ctx context.Context, guid string) (*apiChannel, error) {
	return c.channel(ctx, "GET", channelsPath+"/"+url.PathEscape(guid), "GET "+channelsPath+"/{intgGuid}", nil)
}

func (c *secClient) updateChannel(ctx context.Context, guid string, in channelInput) (*apiChannel, error) {
	body := in.body()
	body["intgGuid"] = guid
	return c.channel(ctx, "PATCH", channelsPath+"/"+url.PathEscape(guid), "PATCH "+channelsPath+"/{intgGuid}", body)
}

func (c *secClient) deleteChannel(ctx context.Context, guid string) error {
	return c.call(ctx, "DELETE", channelsPath+"/"+url.PathEscape(guid), "DELETE "+channelsPath+"/{intgGuid}", nil, nil)
}

func (c *secClient) testChannel(ctx context.Context, guid string) error {
	return c.call(ctx, "POST", channelsPath+"/"+url.PathEscape(guid)+"/test", "POST "+channelsPath+"/{intgGuid}/test", nil, nil)
}
